import { hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ConflictError, InvalidCredentialsError, InvalidInputError } from '#errors';
import { ConsumerService } from '../consumers/consumer.service.js';
import { DashboardAccountRepository } from './dashboard-account.repository.js';
import { DashboardSessionRepository, SessionAccount } from './dashboard-session.repository.js';
import { SignInLimiterService } from './sign-in-limiter.service.js';

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const PASSWORD_MIN = 12;
const PASSWORD_MAX = 256;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** argon2id (@node-rs/argon2's Algorithm.Argon2id; the const enum cannot cross isolated modules). */
const ARGON2ID = 2;
/** Verified against when the email has no account, so a sign-in takes as long whether or not it exists. */
const NO_ACCOUNT_HASH = hash('no account has this password', { algorithm: ARGON2ID });

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  account: SessionAccount;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** Dashboard accounts: each is one consumer of the API, created on the Free plan by the consumers' own rules. */
@Injectable()
export class DashboardAccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly consumers: ConsumerService,
    private readonly accounts: DashboardAccountRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly limiter: SignInLimiterService,
  ) {}

  async signUp(email: string, password: string): Promise<StartedSession> {
    const address = normalEmail(email);
    if (!EMAIL.test(address) || address.length > 254) throw new InvalidInputError('email', 'email must be an email address');
    if (typeof password !== 'string' || password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
      throw new InvalidInputError('password', `password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    const passwordHash = await hash(password, { algorithm: ARGON2ID });
    const account = await this.dataSource.transaction(async (q) => {
      const consumer = await this.consumers.register(q, { name: address, plan: 'free' });
      const accountId = await this.accounts.insert(q, { email: address, passwordHash, consumerId: consumer.id });
      if (accountId === null) throw new ConflictError('an account with this email already exists; sign in instead');
      return { accountId, email: address, consumerId: consumer.id, plan: consumer.plan };
    });
    return this.start(account);
  }

  /** `clientAddress` is who is trying: attempts are limited per account and per address before any check. */
  async signIn(email: string, password: string, clientAddress: string): Promise<StartedSession> {
    const address = normalEmail(email);
    await this.limiter.attempt(address, clientAddress);
    const account = await this.accounts.findByEmail(this.dataSource, address);
    const matches = await verify(account?.passwordHash ?? (await NO_ACCOUNT_HASH), String(password ?? ''));
    if (!account || !matches) throw new InvalidCredentialsError('Email or password is wrong');
    return this.start({ accountId: account.id, email: account.email, consumerId: account.consumerId, plan: account.plan });
  }

  /** The account a session cookie signs in, or null when it names no live session. */
  sessionOf(token: string | undefined): Promise<SessionAccount | null> {
    return token ? this.sessions.findLive(this.dataSource, hashOf(token)) : Promise.resolve(null);
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.sessions.delete(this.dataSource, hashOf(token));
  }

  private async start(account: SessionAccount): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
    await this.sessions.insert(this.dataSource, { tokenHash: hashOf(token), accountId: account.accountId, expiresAt });
    return { token, account };
  }
}

function normalEmail(email: unknown): string {
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}
