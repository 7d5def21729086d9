/** Finding where JSON text first goes wrong (JSON.parse messages differ between engines). */

/** Where a JSON syntax error is: a 0-based offset, 1-based line and column, and what was expected. */
export interface JsonErrorLocation {
  offset: number;
  line: number;
  column: number;
  expected: string;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Scans JSON text and returns the first syntax error's location, or undefined when it is valid. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let position = 0;
  const fail = (expected: string): never => {
    throw new SyntaxFound(position, expected);
  };
  const skip = () => {
    while (position < text.length && WHITESPACE.has(text[position] as string)) position++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, position)) position += word.length;
    else fail("a JSON value");
  };
  const string = () => {
    position++; // opening quote
    while (position < text.length) {
      const char = text[position] as string;
      if (char === '"') {
        position++;
        return;
      }
      if (char === "\\") {
        const next = text[position + 1];
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(position + 2, position + 6))) {
          position += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) position += 2;
        else fail("a valid escape such as \\n or \\u0041");
      } else if (char < " ") {
        fail("no raw control character inside a string (escape it)");
      } else position++;
    }
    fail('a closing quote (")');
  };
  const value = (depth: number): void => {
    if (depth > 2_000) fail("less deeply nested data");
    skip();
    const char = text[position];
    if (char === "{") {
      position++;
      skip();
      if (text[position] === "}") {
        position++;
        return;
      }
      for (;;) {
        skip();
        if (text[position] !== '"') fail("a property name in double quotes (no trailing comma)");
        string();
        skip();
        if (text[position] !== ":") fail('":" after the property name');
        position++;
        value(depth + 1);
        skip();
        if (text[position] === ",") position++;
        else if (text[position] === "}") {
          position++;
          return;
        } else fail('"," or "}"');
      }
    } else if (char === "[") {
      position++;
      skip();
      if (text[position] === "]") {
        position++;
        return;
      }
      for (;;) {
        value(depth + 1);
        skip();
        if (text[position] === ",") position++;
        else if (text[position] === "]") {
          position++;
          return;
        } else fail('"," or "]"');
      }
    } else if (char === '"') string();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else {
      NUMBER.lastIndex = position;
      if (NUMBER.test(text)) position = NUMBER.lastIndex;
      else fail(position >= text.length ? "more input (the text ends early)" : "a JSON value");
    }
  };
  try {
    value(0);
    skip();
    if (position < text.length) fail("the end of the input (extra text after the JSON value)");
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxFound)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split("\n").length;
    const column = error.offset - before.lastIndexOf("\n");
    return { offset: error.offset, line, column, expected: error.expected };
  }
}

class SyntaxFound {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}
