// A real HTTP receiver on 127.0.0.1 (port 0) for webhook tests: records what arrived, answers as told.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalReceiver {
  port: number;
  url: (path?: string) => string;
  received: ReceivedRequest[];
  /** Requests whose headers arrived (the body may still be pending), e.g. for hanging handlers. */
  inFlight: () => number;
  maxInFlight: () => number;
  close: () => Promise<void>;
}

/** `respond` runs once the whole request body has arrived; it may never answer (a hanging endpoint). */
export async function startLocalReceiver(
  respond: (req: ReceivedRequest, res: http.ServerResponse) => void,
  server: http.Server = http.createServer(),
): Promise<LocalReceiver> {
  const received: ReceivedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(request);
      respond(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/webhook') => `http://127.0.0.1:${port}${path}`,
    received,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
