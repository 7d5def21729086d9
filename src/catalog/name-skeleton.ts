/**
 * What a tool name looks like to a reader: `read_file\u200b` and `delete\u202erepo` display as
 * plain names beside the genuine tools, and `read_fіle` (Cyrillic і) or `Read_File` are hard to
 * tell from `read_file`. Format characters are refused outright; look-alikes are compared by
 * skeleton.
 */

const FORMAT = /\p{Cf}/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is meant
const ASCII = /^[\u0000-\u007f]*$/;

/** The first format character (`\p{Cf}`: zero-width, bidi controls) in a name, or undefined. */
export function formatCharacter(name: string): { codePoint: string; index: number } | undefined {
  const match = FORMAT.exec(name);
  if (match === null) return undefined;
  const code = (match[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
  return { codePoint: `U+${code}`, index: match.index };
}

// Latin look-alikes from Cyrillic and Greek that survive NFKC and case folding; the common ones
// from Unicode's confusables table, enough for names (which the strict rule keeps ASCII anyway)
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  с: "c",
  е: "e",
  һ: "h",
  і: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  ѕ: "s",
  т: "t",
  у: "y",
  х: "x",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ı: "i",
  ℓ: "l",
};

/**
 * A name's skeleton: compatibility forms folded (NFKC: fullwidth `ｒｅａｄ` → `read`), lower case,
 * accents dropped, Cyrillic and Greek look-alikes mapped to Latin: two names with one skeleton
 * look the same to a model or a person skimming a listing.
 */
export function nameSkeleton(name: string): string {
  // nearly every name is ASCII, where only case folds; normalising costs more than the rest of
  // validating a tool
  if (ASCII.test(name)) return name.toLowerCase();
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  let skeleton = "";
  for (const char of folded) skeleton += LOOK_ALIKES[char] ?? char;
  return skeleton;
}
