// Runs work whose failure the caller reports instead of failing with it (a search aid such as the
// ranked or place lists, rebuilt when an import ends): undefined when it succeeded, else why not.
export async function failureReason(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
