import { Module } from '@nestjs/common';
import { TestDeliveryModule } from '#alerts';
import { AccountsModule } from '#auth';
import { DatabaseModule } from '#database';
import { RuntimeModule } from '#runtime';

@Module({
  imports: [RuntimeModule.forApp('cli'), DatabaseModule, AccountsModule, TestDeliveryModule],
})
export class CliModule {}
