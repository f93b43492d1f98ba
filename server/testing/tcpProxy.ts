/**
 * A TCP proxy (node:net) that a fault test can cut and restore: while cut it does not listen, so a
 * new connection is refused, and every connection it carried is destroyed, which is what a peer
 * going away (a database stopped, a network down) looks like from the other side. Restored, it
 * listens on the same port again.
 */
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Stops listening and destroys every open connection. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // A destroyed peer is the point of the exercise, not an error to crash on.
    s.on('error', () => {});
  };
  const server = net.createServer((client) => {
    track(client);
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = async () => {
    const closed = server.listening ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve();
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    port,
    cut: stop,
    async restore() {
      await listen(port);
    },
    close: stop,
  };
}
