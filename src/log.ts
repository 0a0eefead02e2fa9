// Logging: one line per event on stderr (stdout is the MCP protocol), plus an optional sink that src/mcp/server.ts
// points at MCP `notifications/message`. Secrets are redacted from every line.
import { redactSecrets } from "./api/redact.js";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export const LOG_LEVELS: LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
}

export type LogSink = (level: LogLevel, message: string) => void;

/** Replaces each secret (e.g. the API key), and any run of 8+ of its characters, with "[redacted]". */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return redactSecrets(text, secrets);
}

export function createLogger(opts: {
  secrets?: () => readonly (string | undefined)[];
  stderrLevel?: LogLevel;
  sinks?: LogSink[];
  write?: (line: string) => void;
}): Logger & { addSink(sink: LogSink): void } {
  const sinks = [...(opts.sinks ?? [])];
  const minimum = LOG_LEVELS.indexOf(opts.stderrLevel ?? "info");
  const write = opts.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const emit = (level: LogLevel, message: string) => {
    const text = redact(message, opts.secrets?.() ?? []);
    if (LOG_LEVELS.indexOf(level) >= minimum) write(`vecdb-mcp ${level}: ${text}`);
    for (const sink of sinks) {
      try {
        sink(level, text);
      } catch {
        // a failing sink (e.g. a closed transport) must not break the caller
      }
    }
  };
  return {
    debug: (m) => emit("debug", m),
    info: (m) => emit("info", m),
    warning: (m) => emit("warning", m),
    error: (m) => emit("error", m),
    addSink: (sink) => sinks.push(sink),
  };
}
