// Small helpers for building DOM elements.

/**
 * The element with this id (the page's own markup, or what a view built).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node;
}

/**
 * A new element: `h("span", {className: "count", id: "opp-count"}, "10 cards")`.
 * Attributes named in `attrs` go through setAttribute, except a few properties
 * (className, id, type, hidden, textContent) set directly.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "className") node.className = String(v);
    else if (k === "id") node.id = String(v);
    else if (k === "hidden") node.hidden = Boolean(v);
    else if (k === "type" && node instanceof HTMLButtonElement) node.type = /** @type {"button"} */ (String(v));
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children);
  return node;
}

/**
 * A key hint inside a button: <span class="key">K</span>.
 * @param {string} key
 */
export function keyHint(key) {
  return h("span", { className: "key" }, key);
}

/**
 * An element's box on the screen.
 * @param {Element} node
 */
export function rectOf(node) {
  return node.getBoundingClientRect();
}
