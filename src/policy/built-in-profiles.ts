/**
 * The built-in profiles. Real MCP catalogs rarely carry `category`, `tags` or `profiles`, so each
 * built-in combines those fields (for catalogs that have them) with server and name globs (for
 * those that do not). Name globs accept an optional server prefix a gateway may add
 * (`mcp__fs__read_file`, `fs.read_file`, `fs/read_file`, `fs:read_file`). Any built-in can be
 * replaced with `registerProfile`.
 */

import type { ProfileDefinition } from "./types.js";

/** An optional namespace before a tool name, as gateways add it. */
const NAMESPACE = "{,*__,*.,*/,*:}";

/**
 * `full`: every tool. The default profile.
 */
const full: ProfileDefinition = {
  name: "full",
  description: "Every tool in the catalog.",
  include: ["*"],
  includeUnprofiled: true,
};

/**
 * `minimal`: a small, read-only core for looking around a workspace and the web: reading and
 * listing files, searching, fetching pages, and the read-only git commands, plus any tool that
 * opts in (`profiles: ["minimal"]`, or tag `core` / `minimal`). Tools annotated
 * `destructiveHint: true` are excluded even when they opt in; an annotation is only a hint, but
 * trusting it to hide a tool can only err on the safe side. Exact names rather than
 * `get_*`/`list_*` patterns: on the 20 real catalogs in shared/ such patterns match hundreds of
 * tools, which is not minimal.
 */
const minimal: ProfileDefinition = {
  name: "minimal",
  description: "A small read-only core: read, list and search files, fetch, read-only git.",
  include: [
    "tag:{core,minimal}",
    `${NAMESPACE}{read,read_file,read_text_file,read_multiple_files,list_directory,directory_tree,search,search_files,grep,glob,get_file_contents,navigate,fetch,web_search,web_fetch,git_status,git_diff,git_log}`,
  ],
  exclude: ["annotation:destructiveHint"],
  includeUnprofiled: false,
};

/**
 * `coding`: what a coding agent needs: files, code, version control (git, GitHub, GitLab), shell
 * and search, chosen by category, tag, server and common tool names. Administration tools
 * (`admin_*`) stay out, as in the original proposal.
 */
const coding: ProfileDefinition = {
  name: "coding",
  description: "Files, code, git and code hosting, shell and search.",
  include: [
    "category:{filesystem,files,file,code,coding,git,vcs,shell,terminal,search,editor,ide,build,test,testing}",
    "tag:{coding,code,git,filesystem,shell}",
    "server:{*filesystem*,*git*,*shell*,*terminal*}",
    `${NAMESPACE}{read_file,read_text_file,read_multiple_files,write_file,edit_file,create_directory,list_directory*,directory_tree,move_file,search_files,get_file_info,glob,grep,ripgrep,bash,shell,run_command,run_terminal_cmd,exec_command,apply_patch,git_*}`,
  ],
  exclude: [`${NAMESPACE}admin_*`],
  includeUnprofiled: false,
};

/** The built-in profiles, by name. */
export const BUILT_IN_PROFILES: readonly ProfileDefinition[] = [full, minimal, coding];

/** The profile a policy starts with when none is given. */
export const DEFAULT_PROFILE = "full";
