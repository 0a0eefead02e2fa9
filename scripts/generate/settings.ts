// The settings' documentation, from their declarations (src/settings.ts): docs/configuration.md's tables, README's
// settings block, manifest.json's user_config and the environment it fills in, server.json's environment variables.
import { allowedText, COMMAND_NAME, defaultText, GROUPS, SETTINGS, type Setting } from "../../src/settings.js";
import { jsonFile, markerBlock, table, type Output } from "./output.js";

const code = (s: string) => (s ? `\`${s}\`` : "");
const sentence = (s: string) => `${s[0].toUpperCase()}${s.slice(1)}.`;
const flagOf = (s: Setting) => (s.flag ? `--${s.flag}${s.value ? ` ${s.value}` : ""}` : "");

export function settingsOutputs(): Output[] {
  return [
    markerBlock("docs/configuration.md", "settings", configurationTables),
    markerBlock("README.md", "settings", readmeTable),
    jsonFile("manifest.json", bundleSettings),
    jsonFile("server.json", registryVariables),
  ];
}

/** One table per group: every setting of both commands. */
function configurationTables(): string {
  const parts: string[] = [];
  for (const group of GROUPS) {
    const rows = SETTINGS.filter((s) => s.group === group).map((s) => [
      s.key,
      code(flagOf(s)),
      code(s.env ?? ""),
      defaultsOf(s),
      allowedText(s),
      s.commands.map((c) => `\`${COMMAND_NAME[c]}\``).join(", "),
      `${s.doc}${s.secret ? " (a secret: never logged nor echoed)" : ""}`,
    ]);
    parts.push(`### ${group}\n\n${table(["setting", "flag", "variable", "default", "allowed", "commands", "meaning"], rows)}`);
  }
  return parts.join("\n\n");
}

/** The default, or each command's where they differ. */
function defaultsOf(s: Setting): string {
  const each = s.commands.map((c) => defaultText(s, c) || "unset");
  return new Set(each).size === 1 ? each[0] : s.commands.map((c, i) => `\`${COMMAND_NAME[c]}\`: ${each[i]}`).join("; ");
}

/** The MCP server's settings, compact (README links docs/configuration.md for the HTTP transport's limits and `serve`'s own). */
function readmeTable(): string {
  const rows = SETTINGS.filter((s) => s.commands.includes("mcp") && (s.group !== "HTTP transport" || ["http", "httpPort", "httpHost", "httpToken"].includes(s.key))).map((s) => [
    [s.flag && code(`--${s.flag}`), s.env && code(s.env)].filter(Boolean).join(" / "),
    defaultText(s, "mcp") || "unset",
    s.doc,
  ]);
  return table(["setting", "default", "meaning"], rows);
}

function bundleSettings(manifest: Record<string, unknown>): void {
  const withBundle = SETTINGS.filter((s) => s.bundle && s.env);
  const server = manifest.server as { mcp_config: { env: Record<string, string> } };
  server.mcp_config.env = Object.fromEntries(withBundle.map((s) => [s.env, `\${user_config.${s.bundle?.id}}`]));
  manifest.user_config = Object.fromEntries(
    withBundle.map((s) => {
      const b = s.bundle as NonNullable<Setting["bundle"]>;
      const fallback = s.defaults?.mcp;
      return [b.id, {
        type: b.type,
        title: b.title,
        description: b.description,
        ...(s.secret && { sensitive: true }),
        required: false,
        default: b.type === "boolean" ? Boolean(fallback) : fallback === undefined ? "" : String(fallback),
      }];
    }),
  );
}

/** Every variable the MCP server reads over stdio (the HTTP transport's apply only with --http). */
function registryVariables(serverJson: Record<string, unknown>): void {
  const [npm] = serverJson.packages as { environmentVariables: unknown }[];
  npm.environmentVariables = SETTINGS.filter((s) => s.env && s.commands.includes("mcp") && s.group !== "HTTP transport").map((s) => {
    const fallback = s.defaults?.mcp;
    const range = s.type === "integer" ? `, ${allowedText(s)}` : s.type === "switch" ? " (1 or 0)" : "";
    return {
      name: s.env,
      description: sentence(`${s.doc}${range}`),
      isRequired: false,
      isSecret: s.secret === true,
      format: s.type === "integer" ? "number" : s.type === "switch" ? "boolean" : s.key === "dataDir" ? "filepath" : "string",
      ...(fallback !== undefined && fallback !== "" && { default: String(fallback) }),
      ...(s.choices && { choices: [...s.choices] }),
    };
  });
}
