import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AlertRulesService, MAX_RULES_PER_CONSUMER } from '#alerts';
import { CurrentPrincipal, type Principal } from '#auth';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { IdParamsDto, RuleBodyDto, RuleResponseDto, RulesQueryDto, RulesResponseDto } from './events.dto.js';

@ApiTags('alerts')
@ApiBearerAuth()
@ApiStandardErrors()
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such rule (or webhook endpoint) of yours' })
@Controller('events')
export class AlertRulesController {
  constructor(private readonly rules: AlertRulesService) {}

  @Post()
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'Creates an alert rule',
    description: `The rule sees occurrences from its creation on, never earlier ones. At most ${MAX_RULES_PER_CONSUMER} rules per account. An unknown webhookEndpointId (or another account's) is a 404.`,
  })
  @ApiCreatedResponse({ type: RuleResponseDto })
  create(@Body() body: RuleBodyDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.create(p.consumerId, body);
  }

  @Get()
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Your alert rules, by id' })
  @ApiOkResponse({ type: RulesResponseDto })
  list(@Query() query: RulesQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.list(p.consumerId, query);
  }

  @Get(':id')
  @SuccessEnvelope()
  @ApiOperation({ summary: 'One alert rule' })
  @ApiOkResponse({ type: RuleResponseDto })
  get(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.get(p.consumerId, params.id);
  }

  @Patch(':id')
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Changes webhookEndpointId, addresses, filters (replaced whole) or paused; the event type cannot change' })
  @ApiOkResponse({ type: RuleResponseDto })
  update(@Param() params: IdParamsDto, @Body() body: RuleBodyDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.update(p.consumerId, params.id, body);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Deletes the rule (its past deliveries stay in the endpoint's log)" })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal): Promise<void> {
    await this.rules.delete(p.consumerId, params.id);
  }

  @Post(':id/pause')
  @HttpCode(HttpStatus.OK)
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Pauses the rule: it matches nothing until resumed' })
  @ApiOkResponse({ type: RuleResponseDto })
  pause(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.setPaused(p.consumerId, params.id, true);
  }

  @Post(':id/resume')
  @HttpCode(HttpStatus.OK)
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Resumes the rule (what happened while it was paused is not delivered)' })
  @ApiOkResponse({ type: RuleResponseDto })
  resume(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.rules.setPaused(p.consumerId, params.id, false);
  }
}
