import { ApiTokenEntity } from './api-token.entity.js';
import { ConsumerEntity } from './consumer.entity.js';
import { StateStatusEntity } from './state-status.entity.js';
import { UsageEntity } from './usage.entity.js';

export { ApiTokenEntity, ConsumerEntity, StateStatusEntity, UsageEntity };

export const ENTITIES = [ConsumerEntity, ApiTokenEntity, UsageEntity, StateStatusEntity];
