import { createServer } from 'node:http';
import { COHORTS } from '#market';

// (c) Bare node:http returning the same bytes: the machine's ceiling.
const body = Buffer.from(JSON.stringify(COHORTS));
createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
