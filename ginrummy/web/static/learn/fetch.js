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
    const error = body && body.error ? body.error : { code: `http_${r.status}`, message: `${r.status} ${r.statusText}` };
    throw Object.assign(new Error(error.message), { code: error.code, params: error.params || {} });
  }
  return body;
}
