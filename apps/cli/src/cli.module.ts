import { Module } from '@nestjs/common';
import { AccountsModule } from '../../../libs/auth/src/index.js';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';

@Module({
  imports: [RuntimeModule.forApp('cli'), DatabaseModule, AccountsModule],
})
export class CliModule {}
