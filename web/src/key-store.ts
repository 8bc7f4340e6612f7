// The API key lives in this browser only (localStorage), never in the URL.
const STORAGE_KEY = 'lis.apiKey';

export function storedKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: the key lasts for this page only
  }
}

export function storeKey(key: string): void {
  try {
    if (key) localStorage.setItem(STORAGE_KEY, key);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // ignored, as above
  }
}

// Bounds as the API enforces them: printable ASCII, at most 200 characters.
export function cleanKey(value: string): string {
  return value.trim().slice(0, 200);
}
