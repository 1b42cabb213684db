import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { SigningKeys } from '#database';
import { ConsumerDirectoryService } from './consumers/consumer-directory.service.js';
import { ConsumerRepository } from './consumers/consumer.repository.js';
import { ConsumerService } from './consumers/consumer.service.js';
import { DeliveryUsageService } from './quota/delivery-usage.service.js';
import { UsageMeterService } from './quota/usage-meter.service.js';
import { UsageRepository } from './quota/usage.repository.js';
import { ApiTokenRepository } from './tokens/api-token.repository.js';
import { TokenService } from './tokens/token.service.js';

/** Consumers, their tokens and usage: what both the CLI and the api need. */
@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [SigningKeys],
      useFactory: (keys: SigningKeys) => ({ privateKey: keys.tokens, signOptions: { algorithm: 'HS256' } }),
    }),
  ],
  providers: [
    ConsumerRepository,
    ApiTokenRepository,
    UsageRepository,
    ConsumerDirectoryService,
    TokenService,
    UsageMeterService,
    ConsumerService,
    DeliveryUsageService,
  ],
  exports: [DeliveryUsageService, ApiTokenRepository, ConsumerDirectoryService, TokenService, UsageMeterService, ConsumerService],
})
export class AccountsModule {}
