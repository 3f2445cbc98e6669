// Offline matches on this device: IndexedDB keeps each one (what the referee needs to
// carry on, and its history line), so they survive reloads and browser restarts. The
// worker writes them; the page reads the history lines without starting the referee.

const DB = "ginrummy-offline";
const STORE = "matches";

/** @typedef {{id: string, kept: any, summary: any}} KeptMatch */

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * One transaction on the store; resolves with the request's result once it is committed.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} work
 */
async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/**
 * A kept match, or undefined.
 * @param {string} id
 * @returns {Promise<KeptMatch | undefined>}
 */
export function getMatch(id) {
  return run("readonly", (s) => s.get(id));
}

/** @param {KeptMatch} entry */
export function putMatch(entry) {
  return run("readwrite", (s) => s.put(entry));
}

/**
 * Every kept match.
 * @returns {Promise<KeptMatch[]>}
 */
export function allMatches() {
  return run("readonly", (s) => s.getAll());
}

/**
 * Forget a kept match (the player deleted it from History).
 * @param {string} id
 */
export function deleteMatch(id) {
  return run("readwrite", (s) => s.delete(id));
}
