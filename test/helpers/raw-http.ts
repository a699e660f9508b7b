import { connect } from 'node:net';

// HTTP/1.1 over a bare socket (node:net), for what fetch and node:http will not send: any Host
// (or none, or two), absolute-form and malformed request targets, conflicting framing headers.

export interface RawAnswer {
  status: number;
  /** Header values by lower-case name (repeated headers joined with ', '). */
  headers: Record<string, string>;
  text: string;
  /** The socket ended or was reset before a whole answer arrived (status 0 when nothing did). */
  cut: boolean;
}

export interface RawRequest {
  method?: string;
  target: string;
  /** Header lines in order, [name, value]; nothing is added (no Host unless given). */
  headers?: [string, string][];
  /** Bytes sent after the blank line, as they are (framing is the caller's business). */
  body?: string | Buffer;
  /** Close the sending side after the body (the answer may then never come: status 0, cut). */
  end?: boolean;
  timeoutMs?: number;
}

/** Sends one request on a fresh connection and reads one answer (closes the connection after it). */
export function rawRequest(url: string, r: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const head = `${r.method ?? 'GET'} ${r.target} HTTP/1.1\r\n${(r.headers ?? []).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (cut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks), cut));
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error(`no answer within ${r.timeoutMs ?? 20_000} ms to ${head.split('\r\n')[0]!.slice(0, 200)}`));
    }, r.timeoutMs ?? 20_000);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const whole = complete(Buffer.concat(chunks), r.method === 'HEAD');
      if (whole) finish(false);
    });
    // A server that answers and closes while the body is still being sent may reset the socket.
    socket.on('error', () => finish(true));
    socket.on('end', () => finish(!complete(Buffer.concat(chunks), r.method === 'HEAD')));
    socket.write(head);
    if (r.body !== undefined) socket.write(r.body);
    if (r.end) socket.end();
  });
}

/** Whether the buffer holds a whole answer (head plus a Content-Length body, or a head-only answer). */
function complete(buf: Buffer, headOnly: boolean): boolean {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return false;
  if (headOnly) return true;
  const head = buf.subarray(0, end).toString('latin1');
  const len = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (len) return buf.length - end - 4 >= Number(len[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return buf.subarray(end).includes('\r\n0\r\n\r\n');
  // No framing: the body runs to the end of the connection (204, 304 and HEAD answers have none).
  return /^HTTP\/1\.1 (1\d\d|204|304)/.test(head);
}

function parse(buf: Buffer, cut: boolean): RawAnswer {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, text: buf.toString('latin1'), cut: true };
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  // Only this answer's body: anything after it on the connection belongs to another answer.
  const body = buf.subarray(end + 4);
  const length = headers['content-length'] === undefined ? body.length : Number(headers['content-length']);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? 0), headers, text: body.subarray(0, length).toString('utf8'), cut };
}
