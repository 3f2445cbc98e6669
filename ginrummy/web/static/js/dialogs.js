// The page's dialogs: opened modal, closed by their Close button, Esc or the backdrop.

import { $ } from "./dom.js";

/** @param {string} id */
export function openDialog(id) {
  const d = /** @type {HTMLDialogElement} */ ($(id));
  if (!d.open) d.showModal();
}

/** @param {string} id */
export function closeDialog(id) {
  const d = /** @type {HTMLDialogElement} */ ($(id));
  if (d.open) d.close();
}

export function closeAll() {
  for (const d of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (d).close();
}

/** Close a dialog from its [data-close] buttons or a click on its backdrop. */
export function wireDialogs() {
  for (const d of document.querySelectorAll("dialog")) {
    d.addEventListener("click", (e) => {
      const target = /** @type {Element} */ (e.target);
      if (target.closest("[data-close]")) /** @type {HTMLDialogElement} */ (d).close();
      else if (target === d) /** @type {HTMLDialogElement} */ (d).close(); // a click on the backdrop
    });
  }
}
