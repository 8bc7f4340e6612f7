import { cameraName, facingText } from '../../web/src/viewer-text';

// How the viewer words a record's camera and direction (web/src/viewer-text.ts).
describe("web page: the viewer's words", () => {
  it('names a camera by make and model, once when the model repeats the make', () => {
    const camera = (make: string | null, model: string | null) => ({ make, model });
    expect(cameraName(camera('RICOH', 'THETA Z1'))).toBe('RICOH THETA Z1');
    expect(cameraName(camera('Canon', 'Canon EOS 80D'))).toBe('Canon EOS 80D');
    expect(cameraName(camera(null, 'Pixel 8'))).toBe('Pixel 8');
    expect(cameraName(camera('GoPro', null))).toBe('GoPro');
    expect(cameraName(camera(null, null))).toBeNull();
    expect(cameraName(null)).toBeNull();
  });

  it('says which way a record faces, in degrees too, or that it is not known', () => {
    const record = (compass: string, heading: number | null) => ({ compass, heading });
    expect(facingText(record('Facing East (E)', 92.4))).toBe('Facing East (E), 92°');
    expect(facingText(record('Facing North (N)', null))).toBe('Direction not known');
  });
});
