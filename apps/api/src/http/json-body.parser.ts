import express from 'express';
import type { NextFunction, Request, Response } from 'express';

/**
 * The api takes JSON bodies only. Nest's default registers express's json and urlencoded parsers
 * for every request; on a GET each of them still checks whether the request is finished, reads
 * its headers and adds `req.body`. Here one layer skips GET and HEAD (whose bodies have no meaning)
 * and hands every other request to the json parser.
 */
export function jsonBodyParser(options: { limit: string }) {
  const json = express.json({ limit: options.limit });
  return (req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' || req.method === 'HEAD' ? next() : json(req, res, next);
}
