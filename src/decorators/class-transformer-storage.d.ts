// class-transformer ships this module's types under types/ only; this maps the runtime path to them.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
