// The Learned view: per tool, the words search learned from use, each with a Remove button.
import { $, api, count, el, fmt, headedTable } from "./inspector-common.js";

/** Removes one word; the server answers with JSON either way. */
async function removeWord(tool, word) {
  const response = await fetch("/api/learned/remove", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tool, word }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message ?? `${response.status} removing ${word}`);
  return body;
}

function wordRow(tool, entry, onRemoved) {
  const button = el("button", {
    type: "button",
    text: "Remove",
    "aria-label": `Remove the learned word “${entry.word}” from ${tool}`,
  });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await removeWord(tool, entry.word);
      await onRemoved();
    } catch (error) {
      button.disabled = false;
      $("#learned-summary").textContent = error.message;
    }
  });
  return el(
    "tr",
    {},
    el("td", {}, el("code", { text: entry.word })),
    el("td", { class: "num", text: entry.weight.toFixed(2) }),
    el("td", { class: "num", text: fmt(entry.sessions) }),
    el("td", {}, button),
  );
}

/** Loads `/api/learned` and draws one table per tool (or why there is nothing). */
export async function loadLearned() {
  const view = await api("/api/learned");
  const words = view.tools.reduce((sum, tool) => sum + tool.words.length, 0);
  $("#learned-summary").textContent =
    view.message ??
    `${count(words, "learned word")} on ${count(view.tools.length, "tool")}. Removing a word takes it out of search at once.`;
  const groups = view.tools.map(({ tool, words: list }) => {
    const table = headedTable(["word", ["weight", "num"], ["sessions", "num"], "action"]);
    const body = el("tbody");
    for (const entry of list) body.append(wordRow(tool, entry, loadLearned));
    table.append(body);
    return el(
      "div",
      { class: "card" },
      el("h3", { text: tool }),
      el("div", { class: "table-wrap short" }, table),
    );
  });
  $("#learned-tools").replaceChildren(...groups);
}
