import { prettyFactory } from 'pino-pretty';

const prettify = prettyFactory({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' });

/** Turns the server's JSON log lines into readable ones; any other line passes as it is. */
export function readableLines(write: (text: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) write(line.startsWith('{') ? prettify(line) : `${line}\n`);
  };
}
