/**
 * Values inside a request. Raw requests carry the arguments they want passed (a file path, a web
 * address). Their words may tell which tool (`youtube.com`, `/root/excel/`), and their kind
 * tells more: a path goes to a tool with a path parameter, an address to one that takes a URL.
 * Such a value keeps its words and gains the words for its kind (`path`, plus `file` when its
 * last part has an extension; `url`).
 */

const URL_START = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i;
const TRAILING = /[.,;:!?)\]}>'"]+$/;
const LEADING = /^[(<[{'"]+/;
const EXTENSION = /\.[a-z0-9]{1,5}$/i;
const SLASH_OR_WWW = /[/\\]|www\./i;

/** The words a value stands for, or undefined when `word` is an ordinary word. */
export function valueWords(word: string): string[] | undefined {
  // a value holds a slash or a backslash, or starts with www.: most words are plain, skip them
  if (!SLASH_OR_WWW.test(word)) return undefined;
  const core = word.replace(LEADING, "").replace(TRAILING, "");
  if (URL_START.test(core)) return [core, "url"];
  const slashes = core.split(/[/\\]/).filter((part) => part.length > 0);
  const pathLike =
    /^(?:~|\.{1,2})?[/\\]/.test(core) || /^[a-z]:\\/i.test(core) || slashes.length >= 3;
  if (!pathLike) return undefined;
  // a last part with an extension names a file, not a folder
  return EXTENSION.test(slashes[slashes.length - 1] ?? "")
    ? [core, "path", "file"]
    : [core, "path"];
}

/** The query words, each value followed by the words for its kind (the same array when none is). */
export function rewriteValues(words: readonly string[]): readonly string[] {
  let out: string[] | undefined;
  words.forEach((word, index) => {
    const replaced = valueWords(word);
    if (replaced === undefined) {
      out?.push(word);
      return;
    }
    out ??= words.slice(0, index);
    out.push(...replaced);
  });
  return out ?? words;
}
