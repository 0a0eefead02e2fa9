// An estimate of how many tokens a model's tokenizer makes of a text, cheap enough to run on every result and never
// below what o200k (the tokenizer test/tool-kit/tokens.test.ts measures it against) counts on what the tools write:
// markdown tables, JSON with long lists of floats, ids, hashes and prose. It walks the text once, in the pieces a BPE
// tokenizer splits it into before merging (a word, up to three digits, a run of punctuation), and charges each piece
// the most tokens such a piece takes there.

const enum Kind {
  Lower,
  Upper,
  Digit,
  Space,
  Newline,
  Punct,
  Wide,
}

function kindOf(code: number): Kind {
  if (code >= 97 && code <= 122) return Kind.Lower;
  if (code >= 65 && code <= 90) return Kind.Upper;
  if (code >= 48 && code <= 57) return Kind.Digit;
  if (code === 32 || code === 9) return Kind.Space;
  if (code === 10 || code === 13) return Kind.Newline;
  if (code < 128) return Kind.Punct;
  return Kind.Wide;
}

/** Letters one token covers at most in a word piece; digits in a number piece; characters in a punctuation run. */
const LETTERS_PER_TOKEN = 4;
/** Letters a token covers in a piece with no vowel (a piece of a hash, base64 or an abbreviation merges worse). */
const LETTERS_PER_TOKEN_NO_VOWEL = 1.5;
const DIGITS_PER_TOKEN = 3;
const PUNCT_PER_TOKEN = 2;
/** Room for pieces that merge worse than the average of their kind (a float list counts within a few percent). */
const MARGIN = 1.1;

function hasVowel(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k) | 0x20; // lower case
    if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121) return true;
  }
  return false;
}

/** Estimated tokens of `text` (an upper bound on o200k's count for the text the tools produce). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const code = text.charCodeAt(i);
    const kind = kindOf(code);
    let j = i + 1;
    if (kind === Kind.Lower || kind === Kind.Upper) {
      // A word piece: capitals then lower case ("Hello", "ID", "camelCase" is two pieces).
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Upper) j++;
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Lower) j++;
      tokens += Math.ceil((j - i) / (hasVowel(text, i, j) ? LETTERS_PER_TOKEN : LETTERS_PER_TOKEN_NO_VOWEL));
    } else if (kind === Kind.Digit) {
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Digit) j++;
      tokens += Math.ceil((j - i) / DIGITS_PER_TOKEN);
    } else if (kind === Kind.Space) {
      // One space joins the piece after it; more are a piece of their own.
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Space) j++;
      if (j - i > 1) tokens += Math.ceil((j - i - 1) / LETTERS_PER_TOKEN);
    } else if (kind === Kind.Newline) {
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Newline) j++;
      tokens += 1;
    } else if (kind === Kind.Punct) {
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Punct) j++;
      tokens += Math.ceil((j - i) / PUNCT_PER_TOKEN);
    } else {
      // Outside ASCII: a character (a surrogate pair counts once) of two or more UTF-8 bytes, at most a token a byte
      // pair in practice.
      const pair = code >= 0xd800 && code <= 0xdbff && j < n;
      if (pair) j++;
      tokens += pair || code >= 0x800 ? 2 : 1;
    }
    i = j;
  }
  return Math.ceil(tokens * MARGIN);
}

/** Estimated tokens of a value as JSON (what structuredContent costs), 0 for undefined. */
export function estimateJsonTokens(value: unknown): number {
  return value === undefined ? 0 : estimateTokens(JSON.stringify(value));
}
