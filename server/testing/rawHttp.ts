/**
 * HTTP over a bare socket, for what fetch would not send as written: request targets with dot
 * segments (fetch normalises "/../x" to "/x") and bodies that announce or stream 100 MB.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: string;
  body: string;
  /** Body bytes we had written when the response arrived. */
  sentBytes: number;
}

function parse(text: string, sentBytes: number): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, headers: head, body: split < 0 ? '' : text.slice(split + 4), sentBytes };
}

/**
 * Sends `head` (request line and headers, without the blank line), then body chunks from
 * `nextChunk` until it returns null or the server has answered and closed. Resolves with what came back.
 */
export function rawRequest(port: number, head: string, nextChunk: () => Buffer | null = () => null): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let answered = false;
    socket.on('data', (d) => {
      received += d.toString('latin1');
      answered = true;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may reset the connection while we still write; what it answered first counts.
      if (answered) resolve(parse(received, sent));
      else reject(err);
    });
    socket.on('close', () => resolve(parse(received, sent)));
    const pump = () => {
      while (!answered && !socket.destroyed) {
        const chunk = nextChunk();
        if (chunk === null) return;
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      // Answered: stop writing and let the server finish and close.
      if (answered) socket.end();
    };
    socket.write(`${head}\r\nConnection: close\r\n\r\n`, pump);
  });
}
