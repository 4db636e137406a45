import { writeFileSync } from 'node:fs';

/** One answer as a replay server gives it back (scripts/bench/replay-server.ts). */
export interface Recording {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

/** What Node writes of its own for each connection and second, not part of the answer. */
const CONNECTION_HEADERS = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

/** Writes an answer for a replay server to `file`, without the headers Node adds itself. */
export function writeRecording(
  file: string,
  answer: { status: number; headers: Record<string, string>; body: Buffer },
): void {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => !CONNECTION_HEADERS.includes(name.toLowerCase())),
  );
  const recording: Recording = { status: answer.status, headers, bodyBase64: answer.body.toString('base64') };
  writeFileSync(file, JSON.stringify(recording));
}
