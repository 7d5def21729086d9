// What every view of the inspector page uses: DOM builders (text always via textContent, never
// parsed as HTML), number format, the API client and the page state.
export const $ = (selector) => document.querySelector(selector);
const SVG = "http://www.w3.org/2000/svg";
export const state = { profile: "", catalog: null };

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export const fmt = (n) => Number(n).toLocaleString("en");

/** Fetches one API route; a refused request becomes an Error carrying the server's message. */
export async function api(path, params = {}) {
  const query = new URLSearchParams({ profile: state.profile, ...params });
  const response = await fetch(`${path}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message ?? `${response.status} from ${path}`);
  return body;
}

export function showError(error) {
  const box = $("#error");
  box.textContent = error ? error.message : "";
  box.hidden = !error;
}

/** A definition list of [label, node] pairs. */
export function fieldList(entries) {
  const list = el("dl", { class: "fields" });
  for (const [key, value] of entries) {
    list.append(el("dt", { text: key }), el("dd", {}, value));
  }
  return list;
}

export function valueNode(value) {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return document.createTextNode(String(value));
  }
  // focusable: a long value scrolls, and the keyboard must reach it
  return el("pre", { tabindex: "0", text: JSON.stringify(value, null, 2) });
}

/** "1 tool", "2 tools", "1,371 tools"; `many` for words that do not just take an s. */
export function count(n, one, many = `${one}s`) {
  return `${fmt(n)} ${n === 1 ? one : many}`;
}

/** A button that copies `text()` to the clipboard and says so (a selection when it is refused). */
export function copyButton(label, text, target) {
  const button = el("button", { type: "button", class: "copy", text: label });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = "Copied";
    } catch {
      // no clipboard permission: select the text, so Ctrl+C copies it
      const range = document.createRange();
      range.selectNodeContents(target);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
  return button;
}

/** A table with its header row; a column given as `[text, "num"]` is right-aligned numbers. */
export function headedTable(columns, attributes = {}) {
  const cells = columns.map((column) => {
    const [text, kind] = Array.isArray(column) ? column : [column];
    return el("th", { scope: "col", ...(kind === "num" ? { class: "num" } : {}), text });
  });
  return el("table", attributes, el("thead", {}, el("tr", {}, ...cells)));
}
