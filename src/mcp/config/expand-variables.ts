/** `${VAR}` expansion in config strings, in the forms Claude Code, Cursor and VS Code write. */

/** What a config's variables resolve against. */
export interface VariableContext {
  env: Readonly<Record<string, string | undefined>>;
  /** What `${workspaceFolder}` means (VS Code); absent → reported as a problem. */
  workspaceFolder?: string;
}

const VARIABLE = /\$\{([^}]*)\}/g;

/**
 * Expands `${VAR}`, `${env:VAR}`, `${VAR:-default}` and `${workspaceFolder}` in a string.
 * Returns the expanded text and one sentence per variable that could not be resolved.
 */
export function expandVariables(
  text: string,
  context: VariableContext,
): { value: string; problems: string[] } {
  const problems: string[] = [];
  const value = text.replace(VARIABLE, (whole, body: string) => {
    if (body === "workspaceFolder" || body === "workspaceRoot") {
      if (context.workspaceFolder !== undefined) return context.workspaceFolder;
      problems.push(`${whole} has no value here; write the path instead.`);
      return whole;
    }
    if (body.startsWith("input:")) {
      problems.push(
        `${whole} asks VS Code for input, which the gateway cannot do; write the value or use \${env:NAME}.`,
      );
      return whole;
    }
    const spec = body.startsWith("env:") ? body.slice(4) : body;
    const split = spec.indexOf(":-");
    const name = split === -1 ? spec : spec.slice(0, split);
    const fallback = split === -1 ? undefined : spec.slice(split + 2);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      problems.push(`${whole} is not a variable name; write \${NAME} or \${NAME:-default}.`);
      return whole;
    }
    const found = context.env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    problems.push(
      `\${${name}} is not set in the environment; export ${name}, or write \${${name}:-default}.`,
    );
    return whole;
  });
  return { value, problems };
}
