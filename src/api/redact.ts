// Taking a secret (the API key) out of any text before it is shown or logged. Not only the whole key: a service that
// echoes a prefix of it, or a message cut in the middle of it, would show part of it — any run of RUN or more
// characters of the key is replaced too. Callers redact before they shorten a text, never after.

/** The shortest run of a secret's characters that is taken out of a text on its own. */
const REDACT_RUN = 8;
const MARK = "[redacted]";

/** `text` with each secret (whole, or any run of REDACT_RUN+ of its characters) replaced by "[redacted]". */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // A key of a character or three cannot be told apart from ordinary text; redacting it would garble messages.
    if (!secret || secret.length < 4) continue;
    out = out.split(secret).join(MARK);
    if (secret.length > REDACT_RUN) out = redactRuns(out, secret);
  }
  return out;
}

/** Replaces every stretch of `text` made of overlapping REDACT_RUN-character pieces of `secret`. */
function redactRuns(text: string, secret: string): string {
  const pieces = new Set<string>();
  for (let i = 0; i + REDACT_RUN <= secret.length; i++) pieces.add(secret.slice(i, i + REDACT_RUN));
  let out = "";
  let copied = 0;
  for (let i = 0; i + REDACT_RUN <= text.length; ) {
    if (!pieces.has(text.slice(i, i + REDACT_RUN))) {
      i++;
      continue;
    }
    let end = i + REDACT_RUN;
    while (end < text.length && pieces.has(text.slice(end - REDACT_RUN + 1, end + 1))) end++;
    out += text.slice(copied, i) + MARK;
    copied = end;
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
