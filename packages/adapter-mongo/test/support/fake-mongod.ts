import { BSON, type Document } from 'mongodb';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

// A stand-in for mongod that speaks just enough of the wire protocol (the OP_QUERY
// handshake, OP_MSG commands) to let the real driver connect, and that can then go silent,
// disappear and come back on the same port, or answer a command with a given document (a
// server error, a write-concern error) so that the driver raises its real error for it. It
// stores nothing: reads find nothing, writes acknowledge without effect. It exists to drive the real driver through outages and
// recoveries on a machine without mongod; the adapter's behaviour on real data is the
// contract suite's job.

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export type FakeMode = 'answer' | 'silent';

const helloReply = (connectionId: number, setName: string | null, port: number): Document => ({
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  // A replica-set primary unless told otherwise: what the store expects in production.
  ...(setName === null
    ? {}
    : { setName, setVersion: 1, hosts: [`127.0.0.1:${port}`], primary: `127.0.0.1:${port}`, me: `127.0.0.1:${port}` }),
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  connectionId,
  minWireVersion: 0,
  maxWireVersion: 21,
  ok: 1,
});

const emptyCursor = (db: string, coll: unknown): Document => ({
  cursor: { id: BSON.Long.fromNumber(0), ns: `${db}.${String(coll)}`, firstBatch: [] },
  ok: 1,
});

const reply = (command: Document, connectionId: number, fake: FakeMongod): Document => {
  const name = Object.keys(command)[0] ?? '';
  const db = typeof command['$db'] === 'string' ? command['$db'] : 'admin';
  const isHello = name === 'hello' || name === 'isMaster' || name === 'ismaster';
  const override = isHello ? undefined : fake.answers.get(name);
  if (override !== undefined) {
    const left = fake.answerTimes.get(name);
    if (left !== undefined && left <= 1) {
      fake.answers.delete(name);
      fake.answerTimes.delete(name);
    } else if (left !== undefined) fake.answerTimes.set(name, left - 1);
    return override;
  }
  switch (name) {
    case 'hello':
    case 'isMaster':
    case 'ismaster':
      return helloReply(connectionId, fake.setName, fake.port);
    case 'find':
    case 'aggregate':
      return emptyCursor(db, command[name]);
    case 'insert':
    case 'update':
    case 'delete':
      return { n: 0, nModified: 0, ok: 1 };
    case 'findAndModify':
      return findAndModifyReply(command);
    default:
      // ping, createIndexes, endSessions, killCursors...
      return { ok: 1 };
  }
};

/**
 * Nothing is stored, so nothing is found; an upsert answers the document it would create
 * (the query's equalities, each $inc field at its increment), as a counter's first use does.
 */
const findAndModifyReply = (command: Document): Document => {
  if (command['upsert'] !== true || command['new'] !== true)
    return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const query = (command['query'] ?? {}) as Document;
  const update = (command['update'] ?? {}) as Document;
  const equalities = Object.fromEntries(
    Object.entries(query).filter(([k, v]) => !k.startsWith('$') && (typeof v !== 'object' || v === null)),
  );
  const value = { ...equalities, ...((update['$inc'] ?? {}) as Document) };
  return { lastErrorObject: { n: 1, updatedExisting: false, upserted: value['_id'] as unknown }, value, ok: 1 };
};

const header = (length: number, requestId: number, responseTo: number, opCode: number): Buffer => {
  const b = Buffer.alloc(16);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(requestId, 4);
  b.writeInt32LE(responseTo, 8);
  b.writeInt32LE(opCode, 12);
  return b;
};

/** The command document of a request, or null when it asks for no answer. */
const decode = (msg: Buffer): { command: Document; opCode: number } | null => {
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_QUERY) {
    const nameEnd = msg.indexOf(0, 20);
    const docStart = nameEnd + 1 + 8;
    return { command: BSON.deserialize(msg.subarray(docStart)), opCode };
  }
  if (opCode === OP_MSG) {
    const flags = msg.readUInt32LE(16);
    if ((flags & 2) !== 0) return null; // moreToCome: the sender expects no answer
    let at = 20;
    const end = msg.length - ((flags & 1) !== 0 ? 4 : 0);
    while (at < end) {
      const kind = msg.readUInt8(at);
      at += 1;
      const size = msg.readInt32LE(at);
      if (kind === 0) return { command: BSON.deserialize(msg.subarray(at, at + size)), opCode };
      at += size;
    }
  }
  return null;
};

const encode = (doc: Document, responseTo: number, opCode: number, requestId: number): Buffer => {
  const body = BSON.serialize(doc);
  if (opCode === OP_QUERY) {
    const prefix = Buffer.alloc(20);
    prefix.writeInt32LE(1, 16); // numberReturned; flags, cursorId, startingFrom stay 0
    return Buffer.concat([header(16 + 20 + body.length, requestId, responseTo, OP_REPLY), prefix, body]);
  }
  const prefix = Buffer.alloc(5); // flagBits 0, section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, responseTo, OP_MSG), prefix, body]);
};

export interface FakeMongod {
  readonly port: number;
  readonly url: string;
  /** 'answer' serves every command; 'silent' keeps every connection open and answers nothing. */
  mode: FakeMode;
  /** Delay of every answer but the handshake's (so concurrent calls each open a connection). */
  delayMs: number;
  /** Commands received, by name (for assertions that a call really reached the server). */
  readonly received: string[];
  /** Commands received, whole (the command document; document sequences are left out). */
  readonly commands: Document[];
  /**
   * Answers given instead of the usual ones, by command name (not for the handshake): an
   * error document ({ok: 0, code, codeName, errmsg}), a reply with a writeConcernError, ...
   */
  readonly answers: Map<string, Document>;
  /** How many times an answer of `answers` is given before the usual one returns (absent: always). */
  readonly answerTimes: Map<string, number>;
  /** The replica set the fake says it is the primary of; null: a standalone mongod. */
  setName: string | null;
  /** Extra delay of the answers to these commands, by name (an index build that takes a while). */
  readonly delays: Map<string, number>;
  /** Stops listening and drops every connection: the port is closed. */
  stop(): Promise<void>;
  /** Listens on the same port again. */
  start(): Promise<void>;
}

export const fakeMongod = async (): Promise<FakeMongod> => {
  const sockets = new Set<Socket>();
  let connections = 0;
  let requestIds = 0;
  let server: Server | null = null;
  let port = 0;

  const serve = (socket: Socket): void => {
    sockets.add(socket);
    const connectionId = ++connections;
    let pending = Buffer.alloc(0);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const msg = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (fake.mode === 'silent') continue;
        const request = decode(msg);
        if (request === null) continue;
        const name = Object.keys(request.command)[0] ?? '';
        fake.received.push(name);
        fake.commands.push(request.command);
        const answer = encode(
          reply(request.command, connectionId, fake),
          msg.readInt32LE(4),
          request.opCode,
          ++requestIds,
        );
        const delay = request.opCode === OP_QUERY ? 0 : fake.delayMs + (fake.delays.get(name) ?? 0);
        if (delay === 0) socket.write(answer);
        else setTimeout(() => socket.write(answer), delay);
      }
    });
  };

  const start = async (): Promise<void> => {
    const s = createServer(serve);
    s.listen(port, '127.0.0.1');
    await once(s, 'listening');
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP port');
    port = address.port;
    server = s;
  };
  const stop = async (): Promise<void> => {
    const s = server;
    server = null;
    if (s === null) return;
    for (const socket of sockets) socket.destroy();
    s.close();
    await once(s, 'close');
  };

  await start();
  const fake: FakeMongod = {
    port,
    url: `mongodb://127.0.0.1:${port}/fake?directConnection=true`,
    mode: 'answer',
    delayMs: 0,
    received: [],
    commands: [],
    answers: new Map(),
    answerTimes: new Map(),
    setName: 'rs0',
    delays: new Map(),
    stop,
    start,
  };
  return fake;
};
