// The learn pages' reads from the server.

/**
 * GET a JSON document; an error answer throws with the server's message.
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => /** @type {any} */ (null));
  if (!r.ok) {
    const message = body && body.error ? body.error.message : `${r.status} ${r.statusText}`;
    throw new Error(message);
  }
  return body;
}
