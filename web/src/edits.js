// Edits kept in the browser: the pool's saved edit records (the C library's format) in
// IndexedDB under the world they belong to, and as a file to download or import.

const DATABASE = 'stratagen';
const STORE = 'edits';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** The edits saved for `world` (a key naming seed and definition), or null. */
export async function loadSaved(world) {
  const bytes = await transact('readonly', (s) => s.get(world));
  return bytes instanceof Uint8Array ? bytes : null;
}

/** Keep `bytes` as the edits of `world`. */
export function save(world, bytes) {
  return transact('readwrite', (s) => s.put(bytes, world));
}

/** Forget the edits of `world`. */
export function forget(world) {
  return transact('readwrite', (s) => s.delete(world));
}

/** Offer `bytes` as a file download. */
export function download(bytes, name) {
  const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([bytes])), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
