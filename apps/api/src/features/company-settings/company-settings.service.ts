import type { updateCompanySettingsBody } from '@ledgerline/contract';
import {
  logoFileProblem,
  logoMessages,
  type logoTypes,
  type AccountInfo,
  type PaymentProviderName,
  type CompanySettings,
  type UpdateCompanySettingsBody,
} from '@ledgerline/contract';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { AppError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { cleanFileName } from '../transactions/index.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { CompanySettingsRepository } from './company-settings.repository.js';
import { readLogo } from './logo-file.js';

type DetailsInput = z.output<typeof updateCompanySettingsBody>;
export type { UpdateCompanySettingsBody };

/** The address the site and mail read the logo from; the version makes each upload a new URL. */
export const logoPath = (updatedOn: Date) =>
  `/api/v0/company-settings/logo?v=${updatedOn.getTime()}`;

export interface PreparedLogo {
  fileName: string;
  fileType: (typeof logoTypes)[number];
  fileSize: number;
  data: Buffer;
}

const invalidLogo = (message: string) => new ValidationError({ imageFile: [message] }, message);

/** spec 3 company details, customisation (logo) and account info. */
export function createCompanySettingsService(deps: { repository: CompanySettingsRepository }) {
  const { repository } = deps;

  async function get(tx: Tx, scope: DatasetScope): Promise<CompanySettings> {
    const company = await repository.company(tx, scope);
    if (!company) throw new NotFoundError('The company was not found.');
    const [details, logo, paymentProvider] = await Promise.all([
      repository.details(tx, scope),
      repository.logoInfo(tx, scope),
      repository.defaultPaymentProvider(tx, scope),
    ]);
    const logoUrl = logo ? logoPath(logo.updatedOn) : null;
    return {
      name: company.datasetName,
      logoUrl,
      paymentProvider: paymentProvider && {
        ...paymentProvider,
        providerName: paymentProvider.providerName as PaymentProviderName,
      },
      companyDetails: details && {
        name: details.name,
        website: details.website,
        taxCode: details.taxCode,
        logoUrl,
        mainAddress: {
          firstNames: details.firstNames,
          surname: details.surname,
          email: details.email,
          telephone: details.telephone,
          address1: details.address1,
          address2: details.address2,
          city: details.city,
          state: details.state,
          postCode: details.postCode,
          country: details.country,
        },
      },
    };
  }

  return {
    get,

    async save(tx: Tx, scope: DatasetScope, body: DetailsInput) {
      const { name, website, taxCode, mainAddress } = body.companyDetails;
      await repository.saveDetails(tx, scope, { name, website, taxCode, ...mainAddress });
      return get(tx, scope);
    },

    async accountInfo(tx: Tx, scope: DatasetScope): Promise<AccountInfo> {
      const company = await repository.company(tx, scope);
      if (!company) throw new NotFoundError('The company was not found.');
      return company;
    },

    /**
     * Checks the file before any transaction: the spec's size and extension rules (spec 1 §5),
     * then the type from the bytes, whatever the name says, and the SVG sanitised.
     */
    async prepareLogo(upload: { data: Buffer; fileName: string }): Promise<PreparedLogo> {
      const problem = logoFileProblem({ name: upload.fileName, size: upload.data.length });
      if (problem === logoMessages.tooLarge)
        throw new AppError(413, 'Content Too Large', problem, { errors: { imageFile: [problem] } });
      if (problem) throw invalidLogo(problem);
      const logo = await readLogo(upload.data);
      if (!logo) throw invalidLogo(logoMessages.type);
      return {
        fileName: cleanFileName(upload.fileName, 255),
        fileType: logo.fileType,
        fileSize: logo.data.length,
        data: logo.data,
      };
    },

    async saveLogo(tx: Tx, scope: DatasetScope, logo: PreparedLogo) {
      if (!(await repository.company(tx, scope)))
        throw new NotFoundError('The company was not found.');
      const updatedOn = await repository.saveLogo(tx, scope, logo);
      return {
        logoUrl: logoPath(updatedOn),
        fileName: logo.fileName,
        fileType: logo.fileType,
        fileSize: logo.fileSize,
      };
    },

    async logo(tx: Tx, scope: DatasetScope) {
      const logo = await repository.logo(tx, scope);
      if (!logo) throw new NotFoundError(logoMessages.notFound);
      return logo;
    },

    async removeLogo(tx: Tx, scope: DatasetScope) {
      if (!(await repository.removeLogo(tx, scope))) throw new NotFoundError(logoMessages.notFound);
    },
  };
}
export type CompanySettingsService = ReturnType<typeof createCompanySettingsService>;
