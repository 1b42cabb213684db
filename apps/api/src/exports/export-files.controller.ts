import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '#auth';
import { ExportsService } from '#market';
import { ExportFileQueryDto } from './exports.dto.js';
import { ErrorResponseDto, ValidationErrorResponseDto } from '../http/error-responses.dto.js';

/** The local export store's downloads: the signature is the credential, as with an object store's pre-signed URL. */
@ApiTags('Exports')
@Public()
@Controller('exports/files')
export class ExportFilesController {
  constructor(private readonly exports: ExportsService) {}

  @Get(':kind/:coin/:file')
  @ApiOperation({ summary: 'An export file behind a signed link (no token; 403 once expired or if any byte of the link is changed)' })
  @ApiOkResponse({ description: 'The file' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Expired or altered link' })
  @ApiBadRequestResponse({ type: ValidationErrorResponseDto, description: 'A query field other than expires and signature' })
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'With EXPORT_STORE=s3: the links point at the store, the api serves no file',
  })
  async download(
    @Param('kind') kind: string,
    @Param('coin') coin: string,
    @Param('file') file: string,
    @Query() query: ExportFileQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const found = await this.exports.open(`${kind}/${coin}/${file}`, query.expires ?? '', query.signature ?? '');
    res.setHeader('Cache-Control', 'private, no-store');
    return new StreamableFile(found.stream, { type: found.contentType, disposition: `attachment; filename="${found.fileName}"` });
  }
}
