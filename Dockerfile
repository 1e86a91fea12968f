FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build -w @tafsiri/web
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
EXPOSE 3000
CMD ["npm", "start"]
