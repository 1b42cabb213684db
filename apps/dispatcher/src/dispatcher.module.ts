import { Module } from '@nestjs/common';
import { DatabaseModule } from '#database';
import { RuntimeModule } from '#runtime';

/** BullMQ workers that sign and POST webhook deliveries; the workers are the alerts issue's work. */
@Module({
  imports: [RuntimeModule.forApp('dispatcher'), DatabaseModule],
})
export class DispatcherModule {}
