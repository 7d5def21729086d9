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

/** A recursive-descent reader of JSON that only moves `position` along and throws `SyntaxFound`
 * at the first character that cannot belong to valid JSON. */
class JsonScanner {
  position = 0;

  constructor(private readonly text: string) {}

  fail(expected: string): never {
    throw new SyntaxFound(this.position, expected);
  }

  skipWhitespace(): void {
    const { text } = this;
    while (this.position < text.length && WHITESPACE.has(text[this.position] as string)) {
      this.position++;
    }
  }

  literal(word: string): void {
    if (this.text.startsWith(word, this.position)) this.position += word.length;
    else this.fail("a JSON value");
  }

  string(): void {
    const { text } = this;
    this.position++; // opening quote
    while (this.position < text.length) {
      const char = text[this.position] as string;
      if (char === '"') {
        this.position++;
        return;
      }
      if (char === "\\") {
        const next = text[this.position + 1];
        if (
          next === "u" &&
          /^[0-9a-fA-F]{4}$/.test(text.slice(this.position + 2, this.position + 6))
        ) {
          this.position += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) this.position += 2;
        else this.fail("a valid escape such as \\n or \\u0041");
      } else if (char < " ") {
        this.fail("no raw control character inside a string (escape it)");
      } else this.position++;
    }
    this.fail('a closing quote (")');
  }

  /** After the opening `{`. */
  object(depth: number): void {
    const { text } = this;
    this.position++;
    this.skipWhitespace();
    if (text[this.position] === "}") {
      this.position++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (text[this.position] !== '"') {
        this.fail("a property name in double quotes (no trailing comma)");
      }
      this.string();
      this.skipWhitespace();
      if (text[this.position] !== ":") this.fail('":" after the property name');
      this.position++;
      this.value(depth + 1);
      this.skipWhitespace();
      if (text[this.position] === ",") this.position++;
      else if (text[this.position] === "}") {
        this.position++;
        return;
      } else this.fail('"," or "}"');
    }
  }

  /** After the opening `[`. */
  array(depth: number): void {
    const { text } = this;
    this.position++;
    this.skipWhitespace();
    if (text[this.position] === "]") {
      this.position++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipWhitespace();
      if (text[this.position] === ",") this.position++;
      else if (text[this.position] === "]") {
        this.position++;
        return;
      } else this.fail('"," or "]"');
    }
  }

  value(depth: number): void {
    const { text } = this;
    if (depth > 2_000) this.fail("less deeply nested data");
    this.skipWhitespace();
    const char = text[this.position];
    if (char === "{") this.object(depth);
    else if (char === "[") this.array(depth);
    else if (char === '"') this.string();
    else if (char === "t") this.literal("true");
    else if (char === "f") this.literal("false");
    else if (char === "n") this.literal("null");
    else {
      NUMBER.lastIndex = this.position;
      if (NUMBER.test(text)) this.position = NUMBER.lastIndex;
      else {
        this.fail(
          this.position >= text.length ? "more input (the text ends early)" : "a JSON value",
        );
      }
    }
  }
}

/** Scans JSON text and returns the first syntax error's location, or undefined when it is valid. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  const scanner = new JsonScanner(text);
  try {
    scanner.value(0);
    scanner.skipWhitespace();
    if (scanner.position < text.length) {
      scanner.fail("the end of the input (extra text after the JSON value)");
    }
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
