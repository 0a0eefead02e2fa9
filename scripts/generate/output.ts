// What a generator produces: a file, or a part of one, rewritten from the declarations. The runner
// (scripts/generate-docs.ts) writes them; test/packaging/generated-docs.test.ts fails when one differs from the file.

export interface Output {
  /** From the repository's root. */
  path: string;
  /** The file's text as the declarations make it, from its current text (undefined: the file does not exist). */
  update(current: string | undefined): string;
}

/** Replaces what stands between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` (the markers stay). */
export function markerBlock(path: string, name: string, content: () => string): Output {
  return {
    path,
    update(current) {
      const open = `<!-- generated:${name} -->`;
      const close = `<!-- /generated:${name} -->`;
      const text = current ?? "";
      const start = text.indexOf(open);
      const end = text.indexOf(close);
      if (start < 0 || end < start) throw new Error(`${path} has no ${open} … ${close} block`);
      return `${text.slice(0, start + open.length)}\n${content().trimEnd()}\n${text.slice(end)}`;
    },
  };
}

/** Edits a JSON file in place (2-space indentation, final newline), leaving the fields `edit` does not set. */
export function jsonFile(path: string, edit: (json: Record<string, unknown>) => void): Output {
  return {
    path,
    update(current) {
      if (current === undefined) throw new Error(`${path} does not exist`);
      const json = JSON.parse(current) as Record<string, unknown>;
      edit(json);
      return `${JSON.stringify(json, null, 2)}\n`;
    },
  };
}

/** A Markdown table; `|` in a cell is escaped. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Each file's current text and its text as the outputs make it (several outputs may edit one file, in turn). */
export function applyOutputs(outputs: readonly Output[], read: (path: string) => string | undefined): Map<string, { before?: string; after: string }> {
  const files = new Map<string, { before?: string; after: string }>();
  for (const output of outputs) {
    const file = files.get(output.path);
    const current = file ? file.after : read(output.path);
    files.set(output.path, { before: file ? file.before : current, after: output.update(current) });
  }
  return files;
}
