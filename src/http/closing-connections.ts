import type http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * When the server closes, a connection that carries no request is closed at once, and one that
 * does as soon as its last answer is sent; requests in flight still finish.
 *
 * Node's own `closeIdleConnections` (what Fastify runs on close) leaves a connection that has not
 * yet sent its first request: a browser's preconnected socket, or the one an HTTP client opens
 * again at once after a request of its was cut (a runner hanging up while held). Such a connection
 * held `forge`'s stop, and every test server's close, for the keep-alive timeout: 72 s.
 */
export function closeConnectionsOnClose(server: FastifyInstance): void {
  const requestsOf = new Map<Socket, number>();
  let closing = false;
  const raw: http.Server = server.server;
  raw.on('connection', (socket: Socket) => {
    requestsOf.set(socket, 0);
    socket.once('close', () => requestsOf.delete(socket));
  });
  raw.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const socket = request.socket;
    requestsOf.set(socket, (requestsOf.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (requestsOf.get(socket) ?? 1) - 1;
      requestsOf.set(socket, left);
      // Ended once what was written has been sent, not cut mid-answer.
      if (closing && left === 0) socket.destroySoon();
    });
  });
  server.addHook('preClose', async () => {
    closing = true;
    for (const [socket, requests] of requestsOf) if (requests === 0) socket.destroy();
  });
}
