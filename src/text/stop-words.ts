/** English stop words: function words that carry no meaning for tool search. */

const WORDS = `a an the and or but nor if then else so than too very
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves
this that these those there here what which who whom whose when where why how
am is are was were be been being have has had having do does did doing done
will would shall should can could may might must
of to in on at by for from with about as into onto through during before after
above below between among via per within without upon
s t d ll m o re ve y
just also only own same such both each few more most other some any
not no yes ok okay please thanks thank hi hello hey
let lets i'm i'd i've`;

/** The stop words, lowercase; tokens in this set are dropped by `tokenize` unless asked not to. */
export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

/** Tests whether a lowercase token is a stop word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
