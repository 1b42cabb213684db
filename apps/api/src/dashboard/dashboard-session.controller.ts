import { Body, Controller, Get, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DashboardAccountService, Public, type StartedSession } from '#auth';
import { CsrfGuard } from './csrf.guard.js';
import { clearSessionCookie, cookieOf, SESSION_COOKIE, setSessionCookie } from './dashboard-cookies.js';
import { DashboardSessionService } from './dashboard-session.service.js';
import { CredentialsDto } from './dashboard.dto.js';

/** The dashboard's own sign-in, by cookie session: not part of the REST API, so not in its OpenAPI document. */
@ApiExcludeController()
@Public()
@UseGuards(CsrfGuard)
@Controller('dashboard/api')
export class DashboardSessionController {
  constructor(
    private readonly accounts: DashboardAccountService,
    private readonly sessions: DashboardSessionService,
  ) {}

  @Get('session')
  session(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.sessions.describe(req, res);
  }

  @Post('sign-up')
  async signUp(@Body() body: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return signedIn(req, res, await this.accounts.signUp(body.email, body.password));
  }

  @Post('sign-in')
  @HttpCode(HttpStatus.OK)
  async signIn(@Body() body: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return signedIn(req, res, await this.accounts.signIn(body.email, body.password, req.ip ?? 'unknown'));
  }

  @Post('sign-out')
  @HttpCode(HttpStatus.NO_CONTENT)
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.accounts.signOut(cookieOf(req, SESSION_COOKIE));
    clearSessionCookie(req, res);
  }
}

function signedIn(req: Request, res: Response, { token, account }: StartedSession) {
  setSessionCookie(req, res, token);
  return { email: account.email, plan: account.plan };
}
