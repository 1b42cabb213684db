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
import { MAX_ENDPOINTS_PER_CONSUMER, WebhookEndpointsService } from '#alerts';
import { CurrentPrincipal, type Principal } from '#auth';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { EndpointBodyDto, EndpointHealthResponseDto, EndpointResponseDto, EndpointsResponseDto, IdParamsDto } from './events.dto.js';

// An endpoint belongs to the calling consumer: another consumer's id is a 404, like a missing one.
@ApiTags('alerts')
@ApiBearerAuth()
@ApiStandardErrors()
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such endpoint of yours' })
@Controller('events/endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'Registers a webhook endpoint',
    description: `HTTPS only. At most ${MAX_ENDPOINTS_PER_CONSUMER} per account. The secret signs every delivery and is never returned.`,
  })
  @ApiCreatedResponse({ type: EndpointResponseDto })
  create(@Body() body: EndpointBodyDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.create(p.consumerId, body);
  }

  @Get()
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Your webhook endpoints, by id' })
  @ApiOkResponse({ type: EndpointsResponseDto })
  list(@Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.list(p.consumerId);
  }

  @Get(':id')
  @SuccessEnvelope()
  @ApiOperation({ summary: 'One webhook endpoint' })
  @ApiOkResponse({ type: EndpointResponseDto })
  get(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.get(p.consumerId, params.id);
  }

  @Patch(':id')
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'Changes url, secretKey (null removes it), description or paused',
    description: 'Unpausing sends what was held.',
  })
  @ApiOkResponse({ type: EndpointResponseDto })
  update(@Param() params: IdParamsDto, @Body() body: EndpointBodyDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.update(p.consumerId, params.id, body);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Deletes the endpoint with its rules and its delivery log' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal): Promise<void> {
    await this.endpoints.delete(p.consumerId, params.id);
  }

  @Post(':id/pause')
  @HttpCode(HttpStatus.OK)
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Pauses deliveries: they are held, never dropped, and sent on resume' })
  @ApiOkResponse({ type: EndpointResponseDto })
  pause(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.pause(p.consumerId, params.id);
  }

  @Post(':id/resume')
  @HttpCode(HttpStatus.OK)
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Resumes a paused or suspended endpoint and sends what was held' })
  @ApiOkResponse({ type: EndpointResponseDto })
  resume(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.resume(p.consumerId, params.id);
  }

  @Get(':id/health')
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'Delivery health: failures in a row, last success and failure, success rates over 1 h and 24 h, latency over 24 h',
  })
  @ApiOkResponse({ type: EndpointHealthResponseDto })
  health(@Param() params: IdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.endpoints.health(p.consumerId, params.id);
  }
}
