/**
 * What a server name may be, in one place for the config reader and `connectServers`: tools are
 * named `SERVER__TOOL`, so a name is a safe prefix (1–64 letters, digits, `_`, `-`) that cannot
 * make two servers' tools meet. With `__` or a trailing `_` allowed, tool `x__y` of server `gh`
 * and tool `y` of server `gh__x` were both `gh__x__y`, and whichever server listed first took the
 * name: a hostile server could shadow a trusted one's tool.
 */

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Why `name` cannot name a server, ending with the fix; undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  if (!SERVER_NAME.test(name))
    return `server names are 1–64 letters, digits, "_" or "-"; rename it.`;
  if (/__|_$/.test(name)) {
    const fixed = name.replace(/_{2,}/g, "-").replace(/_+$/, "");
    return `a server name must not contain "__" or end in "_": tools are named SERVER__TOOL, so another server's tool could be given the same name; rename it (e.g. "${fixed}").`;
  }
  return undefined;
}
