import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../../libs/database/src/index.js';
import { RuntimeModule } from '../../../libs/runtime/src/index.js';

/** BullMQ workers that sign and POST webhook deliveries; the workers are the alerts issue's work. */
@Module({
  imports: [RuntimeModule.forApp('dispatcher'), DatabaseModule],
})
export class DispatcherModule {}
