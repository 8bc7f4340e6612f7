// How the viewer (web/src/viewer-details.ts) words a record's camera and direction. No DOM here, so the
// wording is unit-tested without a browser (test/unit/web-viewer-text.spec.ts).

/** The camera as a person names it: "Ricoh Theta Z1", or null when the photo says nothing of it. */
export function cameraName(camera: { make: string | null; model: string | null } | null): string | null {
  if (!camera) return null;
  const make = camera.make?.trim() ?? '';
  const model = camera.model?.trim() ?? '';
  // Many cameras repeat their make in the model ("Canon" "Canon EOS 80D").
  const name = model.toLowerCase().startsWith(make.toLowerCase()) ? model : `${make} ${model}`.trim();
  return name || null;
}

/** "Facing East (E), 92°": the contract's compass and, when known, the heading in degrees. */
export function facingText(record: { compass: string; heading: number | null }): string {
  return record.heading === null ? 'Direction not known' : `${record.compass}, ${Math.round(record.heading)}°`;
}
