import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { authenticate, startSession } from './auth.js';
import { completeTask, createTask, deleteTask, listTasks } from './tasks.js';
import { assertString, HttpError, log, parseLimit } from './utils.js';

const PORT = Number(process.env.PORT ?? 8080);

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const user = assertString(body.user, 'user');
  const token = assertString(body.token, 'token');
  send(res, 200, startSession(user, token));
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (req.method === 'POST' && url.pathname === '/login') return login(req, res);

  const session = authenticate(req.headers.authorization);
  const [, resource, id] = url.pathname.split('/');
  if (resource !== 'tasks') throw new HttpError(404, `no route ${url.pathname}`);

  switch (req.method) {
    case 'GET':
      return send(res, 200, listTasks(session.user, parseLimit(url.searchParams.get('limit'))));
    case 'POST': {
      const body = await readJson(req);
      return send(res, 201, createTask(session.user, assertString(body.title, 'title')));
    }
    case 'PATCH':
      if (!id) throw new HttpError(400, 'task id missing');
      return send(res, 200, completeTask(session.user, id));
    case 'DELETE':
      if (!id) throw new HttpError(400, 'task id missing');
      deleteTask(session.user, id);
      return send(res, 204, null);
    default:
      throw new HttpError(405, `method ${req.method} not allowed`);
  }
}

const server = createServer((req, res) => {
  route(req, res).catch((err: unknown) => {
    if (err instanceof HttpError) return send(res, err.status, { error: err.message });
    log('unhandled error', { error: String(err) });
    send(res, 500, { error: 'internal error' });
  });
});

server.listen(PORT, '127.0.0.1', () => log('listening', { port: PORT }));

// TODO: graceful shutdown on SIGTERM.
process.on('SIGINT', () => {
  log('shutting down');
  server.close(() => process.exit(0));
});
