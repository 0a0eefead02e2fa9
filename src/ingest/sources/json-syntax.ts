// Where a text stops being JSON, and why, without quoting it. V8's JSON.parse messages quote the text itself
// ("Unexpected token 'r', "root:x:0:0"... is not valid JSON") and give no position for that case; a file's bytes
// must not reach the model's results (a line of a file the model may not read), so the place is found here
// instead: a scan of the JSON grammar (RFC 8259), iterative so that deep nesting cannot overflow the stack.

export interface JsonSyntaxError {
  column: number; // 1-based, in UTF-16 units of the line
  rule: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

/** The first syntax error of `text` as one JSON value surrounded by white space; undefined when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const fail = (rule: string): JsonSyntaxError => ({ column: Math.min(i, text.length) + 1, rule });
  const ws = () => {
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  // What closes each open container: "}" or "]".
  const open: string[] = [];
  // Whether a value is expected next (after "[", ",", ":" or at the start) rather than "," or a closer.
  let wantValue = true;
  let wantKey = false;

  ws();
  if (i === text.length) return fail("the line holds no JSON value");
  for (;;) {
    ws();
    if (i >= text.length) return open.length === 0 && !wantValue ? undefined : fail("the text ends before the JSON value does");
    const c = text[i];
    if (wantKey) {
      if (c !== '"') return fail("a field name in double quotes was expected");
      const bad = scanString();
      if (bad) return bad;
      ws();
      if (text[i] !== ":") return fail('":" was expected after the field name');
      i++;
      wantKey = false;
      wantValue = true;
      continue;
    }
    if (wantValue) {
      if (c === "{") {
        open.push("}");
        i++;
        ws();
        wantValue = false;
        if (text[i] === "}") {
          i++;
          open.pop();
        } else wantKey = true;
        continue;
      }
      if (c === "[") {
        open.push("]");
        i++;
        ws();
        if (text[i] === "]") {
          i++;
          open.pop();
          wantValue = false;
        }
        continue;
      }
      if (c === '"') {
        const bad = scanString();
        if (bad) return bad;
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return fail("a number is malformed");
        i = NUMBER.lastIndex;
      } else if (text.startsWith("true", i)) i += 4;
      else if (text.startsWith("false", i)) i += 5;
      else if (text.startsWith("null", i)) i += 4;
      else return fail("a JSON value (object, list, string, number, true, false or null) was expected");
      wantValue = false;
      continue;
    }
    // after a value
    if (open.length === 0) return fail("there is more after the JSON value");
    const closer = open[open.length - 1];
    if (c === ",") {
      i++;
      if (closer === "}") wantKey = true;
      else wantValue = true;
      continue;
    }
    if (c === closer) {
      i++;
      open.pop();
      continue;
    }
    return fail(closer === "}" ? '"," or "}" was expected after a field\'s value' : '"," or "]" was expected after a list item');
  }

  function scanString(): JsonSyntaxError | undefined {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) return fail("a string is not closed");
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        i++;
        return undefined;
      }
      if (ch < 0x20) return fail("a string holds a raw control character (write it escaped)");
      if (ch === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail("a \\u escape needs four hex digits");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail("a string holds an unknown escape");
        continue;
      }
      i++;
    }
  }
}
