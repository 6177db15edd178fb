import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { StderrLogger } from 'onemodelcontext/nest';
import { AppModule } from './app.module';

/** The same application over stdio: stdout carries only MCP messages, every log line goes to stderr. */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.register('stdio'), { logger: new StderrLogger() });
  app.enableShutdownHooks();
  await app.init();
}

void main();
