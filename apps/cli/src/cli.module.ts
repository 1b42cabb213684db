import { Module } from '@nestjs/common';
import { AccountsModule } from '#auth';
import { DatabaseModule } from '#database';
import { RuntimeModule } from '#runtime';

@Module({
  imports: [RuntimeModule.forApp('cli'), DatabaseModule, AccountsModule],
})
export class CliModule {}
