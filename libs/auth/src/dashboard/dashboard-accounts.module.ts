import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts.module.js';
import { DashboardAccountRepository } from './dashboard-account.repository.js';
import { DashboardAccountService } from './dashboard-account.service.js';
import { DashboardSessionRepository } from './dashboard-session.repository.js';
import { SignInLimiterService } from './sign-in-limiter.service.js';

/** Sign-up, sign-in and sessions of the dashboard, on top of the consumers and tokens of AccountsModule. */
@Module({
  imports: [AccountsModule],
  providers: [DashboardAccountRepository, DashboardSessionRepository, SignInLimiterService, DashboardAccountService],
  exports: [AccountsModule, DashboardAccountService],
})
export class DashboardAccountsModule {}
