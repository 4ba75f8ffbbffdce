/**
 * The two client libraries of the hand-written corpus packages (see library-packages.ts): a
 * Prisma client as `prisma generate` writes it for a small schema (User, Post, a Role enum), and
 * axios. Declarations keep the real ones' constructs; runtimes do what the corpus calls, in memory.
 */

/** What `prisma generate` writes for `model User { id Int @id; email String @unique; name String?; role Role; posts Post[] }` and `model Post`. */
export const PRISMA_GENERATED_D_TS = `
/**
 * Client
 **/
export type PrismaPromise<T> = Promise<T> & { [Symbol.toStringTag]: 'PrismaPromise' };

/**
 * Model User
 */
export type User = {
  id: number
  email: string
  name: string | null
  role: $Enums.Role
  createdAt: Date
}

/**
 * Model Post
 */
export type Post = {
  id: number
  title: string
  published: boolean
  authorId: number
}

export namespace $Enums {
  export const Role: {
    USER: 'USER',
    ADMIN: 'ADMIN'
  };
  export type Role = (typeof Role)[keyof typeof Role]
}

export type Role = $Enums.Role
export const Role: typeof $Enums.Role

export namespace Prisma {
  export type Enumerable<T> = T | Array<T>;
  export type SortOrder = 'asc' | 'desc';
  export type StringFilter = { equals?: string; contains?: string; startsWith?: string; not?: string | StringFilter };
  export type IntFilter = { equals?: number; in?: number[]; lt?: number; gt?: number };

  export type UserSelect = { id?: boolean; email?: boolean; name?: boolean; role?: boolean; createdAt?: boolean };
  export type UserWhereInput = { id?: IntFilter | number; email?: StringFilter | string; name?: StringFilter | string | null; role?: $Enums.Role };
  export type UserWhereUniqueInput = { id?: number; email?: string };
  export type UserOrderByWithRelationInput = { id?: SortOrder; email?: SortOrder; createdAt?: SortOrder };
  export type UserCreateInput = { email: string; name?: string | null; role?: $Enums.Role; createdAt?: Date | string };

  export type UserFindManyArgs = { select?: UserSelect | null; where?: UserWhereInput; orderBy?: Enumerable<UserOrderByWithRelationInput>; take?: number; skip?: number };
  export type UserFindUniqueArgs = { select?: UserSelect | null; where: UserWhereUniqueInput };
  export type UserCreateArgs = { select?: UserSelect | null; data: UserCreateInput };
  export type UserCountArgs = { where?: UserWhereInput };

  /** Only the keys of T that U has: what the generated client accepts as arguments. */
  export type SelectSubset<T, U> = { [key in keyof T]: key extends keyof U ? T[key] : never };
  /** The model with only the selected fields, or all of them. */
  export type UserGetPayload<S extends boolean | null | undefined | { select?: UserSelect | null }> = S extends { select: infer U }
    ? U extends UserSelect
      ? { [K in keyof U as U[K] extends true ? K : never]: K extends keyof User ? User[K] : never }
      : User
    : User;

  export interface UserDelegate {
    findMany<T extends UserFindManyArgs>(args?: SelectSubset<T, UserFindManyArgs>): PrismaPromise<Array<UserGetPayload<T>>>;
    findUnique<T extends UserFindUniqueArgs>(args: SelectSubset<T, UserFindUniqueArgs>): PrismaPromise<UserGetPayload<T> | null>;
    create<T extends UserCreateArgs>(args: SelectSubset<T, UserCreateArgs>): PrismaPromise<UserGetPayload<T>>;
    count(args?: UserCountArgs): PrismaPromise<number>;
  }

  export type LogLevel = 'info' | 'query' | 'warn' | 'error';
  export interface PrismaClientOptions { datasourceUrl?: string; log?: LogLevel[] }
  export type TransactionClient = Omit<PrismaClient, '$connect' | '$disconnect' | '$transaction'>;

  export class PrismaClientKnownRequestError extends Error {
    code: string;
    meta?: Record<string, unknown>;
    clientVersion: string;
    constructor(message: string, options: { code: string; clientVersion: string; meta?: Record<string, unknown> });
  }
}

/**
 * ##  Prisma Client ʲˢ
 */
export declare class PrismaClient<ClientOptions extends Prisma.PrismaClientOptions = Prisma.PrismaClientOptions> {
  constructor(optionsArg?: Prisma.Subset<ClientOptions, Prisma.PrismaClientOptions>);
  $connect(): Promise<void>;
  $disconnect(): Promise<void>;
  $transaction<R>(fn: (prisma: Prisma.TransactionClient) => Promise<R>, options?: { timeout?: number }): Promise<R>;
  get user(): Prisma.UserDelegate;
}

export namespace Prisma {
  export type Subset<T, U> = { [key in keyof T]: key extends keyof U ? T[key] : never };
}
`;

/** An in-memory client with the generated client's calls (CommonJS, as @prisma/client is). */
export const PRISMA_JS = `'use strict';
class PrismaClientKnownRequestError extends Error {
  constructor(message, { code, clientVersion, meta }) { super(message); this.code = code; this.clientVersion = clientVersion; this.meta = meta; }
}
const Prisma = { PrismaClientKnownRequestError };
const Role = { USER: 'USER', ADMIN: 'ADMIN' };
const pick = (row, select) => (select ? Object.fromEntries(Object.entries(row).filter(([key]) => select[key])) : { ...row });
const matches = (row, where = {}) => Object.entries(where).every(([key, value]) => (value && typeof value === 'object' ? (value.equals ?? value.contains) === undefined || String(row[key]).includes(value.equals ?? value.contains) : row[key] === value));
class PrismaClient {
  constructor() { this._users = []; }
  async $connect() {}
  async $disconnect() {}
  async $transaction(fn) { return fn(this); }
  get user() {
    const rows = this._users;
    return {
      findMany: async (args = {}) => rows.filter((row) => matches(row, args.where)).slice(args.skip ?? 0, args.take === undefined ? undefined : (args.skip ?? 0) + args.take).map((row) => pick(row, args.select)),
      findUnique: async (args) => { const row = rows.find((r) => matches(r, args.where)); return row ? pick(row, args.select) : null; },
      create: async (args) => {
        if (rows.some((r) => r.email === args.data.email)) throw new PrismaClientKnownRequestError('Unique constraint failed on the fields: (\`email\`)', { code: 'P2002', clientVersion: '6.1.0', meta: { target: ['email'] } });
        const row = { id: rows.length + 1, name: null, role: 'USER', createdAt: new Date(0), ...args.data };
        rows.push(row);
        return pick(row, args.select);
      },
      count: async (args = {}) => rows.filter((row) => matches(row, args.where)).length,
    };
  }
}
module.exports = { PrismaClient, Prisma, Role };
`;

/** axios's index.d.ts, the parts the corpus reaches, as written there. */
export const AXIOS_D_TS = `export type RawAxiosRequestHeaders = Partial<Record<string, string | number | boolean>>;
export type Method = 'get' | 'GET' | 'delete' | 'DELETE' | 'post' | 'POST' | 'put' | 'PUT' | 'patch' | 'PATCH';

export interface AxiosRequestConfig<D = any> {
  url?: string;
  method?: Method | string;
  baseURL?: string;
  headers?: RawAxiosRequestHeaders;
  params?: any;
  data?: D;
  timeout?: number;
  adapter?: AxiosAdapter;
  validateStatus?: ((status: number) => boolean) | null;
}

export interface CreateAxiosDefaults<D = any> extends Omit<AxiosRequestConfig<D>, 'headers'> {
  headers?: RawAxiosRequestHeaders;
}

export interface AxiosResponse<T = any, D = any> {
  data: T;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  config: AxiosRequestConfig<D>;
  request?: any;
}

export interface AxiosAdapter {
  (config: AxiosRequestConfig): Promise<AxiosResponse>;
}

export class AxiosError<T = unknown, D = any> extends Error {
  constructor(message?: string, code?: string, config?: AxiosRequestConfig<D>, request?: any, response?: AxiosResponse<T, D>);
  config?: AxiosRequestConfig<D>;
  code?: string;
  response?: AxiosResponse<T, D>;
  isAxiosError: boolean;
  status?: number;
  static readonly ERR_BAD_RESPONSE = "ERR_BAD_RESPONSE";
}

export class Axios {
  constructor(config?: AxiosRequestConfig);
  defaults: AxiosRequestConfig;
  request<T = any, R = AxiosResponse<T>, D = any>(config: AxiosRequestConfig<D>): Promise<R>;
  get<T = any, R = AxiosResponse<T>, D = any>(url: string, config?: AxiosRequestConfig<D>): Promise<R>;
  delete<T = any, R = AxiosResponse<T>, D = any>(url: string, config?: AxiosRequestConfig<D>): Promise<R>;
  post<T = any, R = AxiosResponse<T>, D = any>(url: string, data?: D, config?: AxiosRequestConfig<D>): Promise<R>;
  put<T = any, R = AxiosResponse<T>, D = any>(url: string, data?: D, config?: AxiosRequestConfig<D>): Promise<R>;
}

export interface AxiosInstance extends Axios {
  <T = any, R = AxiosResponse<T>, D = any>(config: AxiosRequestConfig<D>): Promise<R>;
  <T = any, R = AxiosResponse<T>, D = any>(url: string, config?: AxiosRequestConfig<D>): Promise<R>;
}

export interface AxiosStatic extends AxiosInstance {
  create(config?: CreateAxiosDefaults): AxiosInstance;
  Axios: typeof Axios;
  AxiosError: typeof AxiosError;
  isAxiosError<T = any, D = any>(payload: any): payload is AxiosError<T, D>;
}

export function isAxiosError<T = any, D = any>(payload: any): payload is AxiosError<T, D>;

declare const axios: AxiosStatic;

export default axios;
`;

/** axios's runtime for what the corpus calls: instances, verbs, adapters, AxiosError (ESM). */
export const AXIOS_JS = `export class AxiosError extends Error {
  constructor(message, code, config, request, response) {
    super(message);
    Object.assign(this, { code, config, request, response, isAxiosError: true, status: response?.status });
  }
}
AxiosError.ERR_BAD_RESPONSE = 'ERR_BAD_RESPONSE';
export function isAxiosError(payload) {
  return payload?.isAxiosError === true;
}
const fetchAdapter = async (config) => {
  const response = await fetch(new URL(config.url, config.baseURL), { method: config.method, headers: config.headers, body: config.data === undefined ? undefined : JSON.stringify(config.data) });
  return { data: await response.json(), status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), config };
};
export class Axios {
  constructor(defaults = {}) {
    this.defaults = defaults;
  }
  async request(config) {
    const merged = { method: 'get', ...this.defaults, ...config, headers: { ...this.defaults.headers, ...config.headers } };
    const response = await (merged.adapter ?? fetchAdapter)(merged);
    const valid = merged.validateStatus ?? ((status) => status >= 200 && status < 300);
    if (!valid(response.status)) throw new AxiosError(\`Request failed with status code \${response.status}\`, AxiosError.ERR_BAD_RESPONSE, merged, undefined, response);
    return response;
  }
  get(url, config) { return this.request({ ...config, url, method: 'get' }); }
  delete(url, config) { return this.request({ ...config, url, method: 'delete' }); }
  post(url, data, config) { return this.request({ ...config, url, data, method: 'post' }); }
  put(url, data, config) { return this.request({ ...config, url, data, method: 'put' }); }
}
function instance(defaults) {
  const context = new Axios(defaults);
  const call = (urlOrConfig, config) => context.request(typeof urlOrConfig === 'string' ? { ...config, url: urlOrConfig } : urlOrConfig);
  for (const verb of ['request', 'get', 'delete', 'post', 'put']) call[verb] = context[verb].bind(context);
  call.defaults = context.defaults;
  return call;
}
const axios = instance({});
axios.create = (config) => instance(config);
axios.Axios = Axios;
axios.AxiosError = AxiosError;
axios.isAxiosError = isAxiosError;
export default axios;
`;
