import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What this module reads and writes of Node's ServerResponse beyond its documented API:
 * `_header` is the head `writeHead` puts together, as it goes on the wire, and `_headerSent`
 * whether it went; `shouldKeepAlive` and `maxRequestsOnConnectionReached` are what Node decided
 * about the connection for this request. test/http/written-heads.test.ts holds all four to
 * Node's behaviour, byte for byte on the wire.
 */
interface NodeAnswerState {
  _header: string | null;
  _headerSent: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached?: boolean;
}

/** An answer's head as Node wrote it, split around the request id's value, with its body. */
interface WrittenHead {
  statusMessage: string;
  beforeId: string;
  afterId: string;
  beforeIdBytes: Buffer;
  /** The head after the id, with the body where one is sent (not for HEAD, nor a 304). */
  restBytes: Buffer;
  body: Buffer | undefined;
}

/** What an answer is made of: its status, its head's key (see headKey) and its body. */
export interface HeadedAnswer {
  status: number;
  key: string;
  body: Buffer | undefined;
}

/**
 * The key of an answer's head: its status and headers, given as `writeHead` takes them flat with
 * the request id first, all but the id's value. The same key, the same head.
 */
export function headKey(status: number, headers: readonly string[]): string {
  return `${status}\n${headers.slice(2).join('\n')}`;
}

/**
 * The heads Node's `writeHead` wrote this second, for writing the next answers with the same
 * status, headers and body to their socket whole, as Node would have: the same bytes, the
 * request's own id put in its place, and Node's answer then ended with nothing left to write
 * (its 'finish', keep-alive and the next request on the connection as ever).
 *
 * `writeHead` checks every header name and value against Node's rules and puts the head
 * together anew for every answer: with two dozen headers, that and turning the head into bytes
 * cost a tenth of the server's time on a kept page (docs/speed.md). Here a head is put together
 * and checked by Node once a second per answer; the others are copies of it.
 *
 * A head is used only where Node would write exactly it: an HTTP/1.1 request it keeps the
 * connection open after, whose answer holds the socket (not a pipelined request waiting for the
 * one before), within the second the head's Date names. Anything else goes through `writeHead`.
 */
export class WrittenHeads {
  private second = Number.NaN;
  /** The Date header of `second`, as Node writes it. */
  private dateLine = '';
  private readonly withBody = new Map<string, WrittenHead>();
  private readonly headOnly = new Map<string, WrittenHead>();

  constructor(private readonly requestIdHeader: string) {}

  /** Writes the answer to its socket and ends it, when its head was learned this second; false when it was not written. */
  write(req: IncomingMessage, res: ServerResponse, answer: HeadedAnswer, requestId: string): boolean {
    const socket = res.socket;
    // A socket that can no longer be written is left to Node, which drops the answer silently.
    if (!socket?.writable || res.headersSent || !reusable(req, res)) return false;
    const sendsBody = req.method !== 'HEAD' && answer.body !== undefined;
    const head = this.heads(sendsBody).get(answer.key);
    if (!head || head.body !== answer.body) return false;

    socket.cork();
    socket.write(head.beforeIdBytes);
    socket.write(requestId, 'latin1');
    socket.write(head.restBytes);
    socket.uncork();

    res.statusCode = answer.status;
    res.statusMessage = head.statusMessage;
    const state = res as unknown as NodeAnswerState;
    state._header = head.beforeId + requestId + head.afterId;
    state._headerSent = true;
    res.end();
    return true;
  }

  /** Keeps the head `writeHead` just made for this answer, for the rest of the second, where it may be copied. */
  learn(req: IncomingMessage, res: ServerResponse, answer: HeadedAnswer, requestId: string): void {
    if (!reusable(req, res)) return;
    const written = (res as unknown as NodeAnswerState)._header;
    if (typeof written !== 'string') return;
    const sendsBody = req.method !== 'HEAD' && answer.body !== undefined;
    const heads = this.heads(sendsBody);
    const statusLineEnd = written.indexOf('\r\n');
    const idAt = statusLineEnd + `\r\n${this.requestIdHeader}: `.length;
    // The id is the first header, and the head names this second: a head written with the last
    // second's Date (Node's cache of it not yet renewed) is not kept.
    if (
      statusLineEnd < 0 ||
      !written.startsWith(`\r\n${this.requestIdHeader}: ${requestId}\r\n`, statusLineEnd) ||
      !written.includes(this.dateLine)
    )
      return;

    const beforeId = written.slice(0, idAt);
    const afterId = written.slice(idAt + requestId.length);
    const afterIdBytes = Buffer.from(afterId, 'latin1');
    heads.set(answer.key, {
      statusMessage: res.statusMessage,
      beforeId,
      afterId,
      beforeIdBytes: Buffer.from(beforeId, 'latin1'),
      restBytes: sendsBody ? Buffer.concat([afterIdBytes, answer.body!]) : afterIdBytes,
      body: answer.body,
    });
  }

  /** This second's heads; a new second starts with none, as its Date differs. */
  private heads(withBody: boolean): Map<string, WrittenHead> {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.dateLine = `\r\nDate: ${new Date(second * 1000).toUTCString()}\r\n`;
      this.withBody.clear();
      this.headOnly.clear();
    }
    return withBody ? this.withBody : this.headOnly;
  }
}

/** Whether Node heads this request's answer as it heads any other's: HTTP/1.1, the connection kept open. */
function reusable(req: IncomingMessage, res: ServerResponse): boolean {
  const state = res as unknown as NodeAnswerState;
  return req.httpVersion === '1.1' && state.shouldKeepAlive === true && state.maxRequestsOnConnectionReached !== true;
}
