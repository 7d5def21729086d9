/** `redactUrls`: keeps secrets that travel in URLs out of messages and logs. */

// scheme://[userinfo@]rest, up to whitespace, a quote or a bracket that ends the URL in prose
const URL_PATTERN = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>`()[\]{}]+)/gi;

/**
 * Strips the userinfo (`user:password@`), the query string and the fragment from every URL in a
 * text: config URLs often carry an API key (`?api_key=${KEY}`, expanded from the environment),
 * and errors and logs reach the model, the inspector and log files. A removed query shows as
 * `?…` so the reader knows one was there.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_PATTERN, (whole, scheme: string, rest: string) => {
    const slash = rest.search(/[/?#]/);
    let authority = slash === -1 ? rest : rest.slice(0, slash);
    let tail = slash === -1 ? "" : rest.slice(slash);
    const at = authority.lastIndexOf("@");
    if (at !== -1) authority = authority.slice(at + 1);
    const cut = tail.search(/[?#]/);
    // trailing punctuation belongs to the sentence, not the URL
    const end = /[.,;:!]+$/.exec(tail)?.[0] ?? "";
    if (cut !== -1) tail = `${tail.slice(0, cut)}?…${end}`;
    const redacted = `${scheme}${authority}${tail}`;
    return at === -1 && cut === -1 ? whole : redacted;
  });
}
