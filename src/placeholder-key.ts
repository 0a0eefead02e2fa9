// A key copied from an example as written ("YOUR_PINECONE_API_KEY", "<api-key>", "${input:pinecone_key}") is not a key:
// sent to the hosted service it would only fail, and kept as a secret it would have every run of its characters —
// including variable names such as "PINECONE_" — redacted from the texts the model reads.

/** Words that, alone, are what an example puts where the key goes. */
const PLACEHOLDER_WORDS = new Set([
  "apikey", "pineconeapikey", "key", "yourkey", "changeme", "changeit", "replaceme", "placeholder", "secret", "token",
  "none", "null", "undefined", "todo", "tbd", "insertkeyhere", "keyhere", "apikeyhere", "enterkeyhere",
]);

/** What makes `key` a placeholder rather than a key (undefined: it may be a key). */
export function placeholderKeyProblem(key: string): string | undefined {
  const k = key.trim();
  if (/^\$\{[^}]*\}$/.test(k) || /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(k) || /^%[A-Za-z_][A-Za-z0-9_]*%$/.test(k)) {
    return "a variable reference the client did not expand";
  }
  if (/^<[^<>]*>$/.test(k) || /^\[[^\]]*\]$/.test(k) || /^\{\{[^}]*\}\}$/.test(k)) return "a bracketed placeholder";
  const letters = k.toLowerCase().replace(/[^a-z0-9]/g, "");
  // "xxxx-xxxx", "****", "pcsk_xxxx…": one character repeated where the key goes.
  // (… as \u2026: one character past Latin-1 in a chunk makes V8 read the whole chunk as two-byte text, slower to scan)
  if (oneCharacterRepeated(k) || /^(x{3,}|\*{3,}|\.{3,}|\u2026+)/i.test(k)) return "a masked or repeated-character placeholder";
  if (PLACEHOLDER_WORDS.has(letters)) return "a placeholder word";
  if (/^(your|my|insert|enter|replace|put|add|paste)/.test(letters) && /(key|token|secret)/.test(letters)) return "an example's \"your key\" text";
  if (/(key|token)(goes)?here$/.test(letters)) return "an example's \"key here\" text";
  return undefined;
}

/** "aaaa", "xxxx-xxxx", "pcsk_0000 0000": one character (any case) three times or more, separators aside. Linear: a
 * regex with nested repetition took seconds on a 30-character key. */
function oneCharacterRepeated(key: string): boolean {
  const rest = key.replace(/^pcsk_/i, "").replace(/[-_ .]/g, "").toLowerCase();
  return rest.length >= 3 && [...rest].every((c) => c === rest[0]);
}
